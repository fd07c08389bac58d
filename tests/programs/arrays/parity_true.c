// 100 000 cells filled with 1 at even and -1 at odd indices, then each checked against its
// parity: TRUE (\forall k: k < i ==> a[k] == (k % 2 == 0 ? 1 : -1))
extern void reach_error(void);
int a[100000];
int main() {
  for (int i = 0; i < 100000; i++) a[i] = i % 2 == 0 ? 1 : -1;
  for (int i = 0; i < 100000; i++)
    if (a[i] != (i % 2 == 0 ? 1 : -1)) reach_error();
  return 0;
}
