// init loop then check: the loop skips the last element, which stays 0 (static storage)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int a[10];
int main() {
  for (int i = 0; i < 9; i++) a[i] = 2 * i + 1;
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 10 && a[k] == 0) reach_error();
  return 0;
}
