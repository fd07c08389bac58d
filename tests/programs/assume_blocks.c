/* The assumption rules out the only erroneous value. */
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x != 42);
  if (x == 42) {
    __VERIFIER_error();
  }
  return 0;
}
