// init loop then check: every element is 2*i, read back at a nondet index
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int a[10];
int main() {
  for (int i = 0; i < 10; i++) a[i] = 2 * i;
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 10 && a[k] != 2 * k) reach_error();
  return 0;
}
