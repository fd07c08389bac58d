extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int main(void) {
  int a[4] = {0, 1, 2, 3};
  int i = __VERIFIER_nondet_int();
  if (i >= 0 && i < 4 && a[i] == 3) __VERIFIER_error();
  return 0;
}
