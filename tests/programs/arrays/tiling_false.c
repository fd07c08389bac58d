// 100 tiles of two cells, but the second cell of tile 70 gets v + 1, then all 200 cells
// checked against v: FALSE (cell 141)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[200];
int main() {
  int v = __VERIFIER_nondet_int();
  for (int i = 0; i < 100; i++) { a[2 * i] = v; a[2 * i + 1] = i == 70 ? v + 1 : v; }
  for (int i = 0; i < 200; i++)
    if (a[i] != v) reach_error();
  return 0;
}
