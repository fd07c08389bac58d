extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x != 3) {
    x = x * 1;
  }
  __VERIFIER_error();
  return 0;
}
