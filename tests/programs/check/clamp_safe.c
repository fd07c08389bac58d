extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) {
  if (!cond) {
    __VERIFIER_error();
  }
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 10) {
    x = 10;
  }
  __VERIFIER_assert(x <= 10);
  return 0;
}
