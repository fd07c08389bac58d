// a variable-length array declared in a loop, filled and read within each iteration: TRUE (also
// under valid-memsafety)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int total = 0;
  for (int i = 1; i <= 50; i++) {
    int n = __VERIFIER_nondet_int();
    if (n < 1 || n > 8) n = 4;
    int a[n];
    for (int j = 0; j < n; j++) a[j] = 1;
    total += a[n - 1];
  }
  if (total != 50) reach_error();
  return 0;
}
