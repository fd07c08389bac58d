// 200 cells filled with 1 at even and -1 at odd indices, except cell 77, which gets 1: each
// checked against its parity: FALSE (cell 77)
extern void reach_error(void);
int a[200];
int main() {
  for (int i = 0; i < 200; i++) a[i] = i % 2 == 0 || i == 77 ? 1 : -1;
  for (int i = 0; i < 200; i++)
    if (a[i] != (i % 2 == 0 ? 1 : -1)) reach_error();
  return 0;
}
