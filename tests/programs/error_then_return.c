/* FALSE: the loop reaches i > n for any n (and i < 0 after wrapping around); the return block is reached only after an error call, so its phi of ret has no entering edge in any step. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int ret;
int main(void) {
  int n = __VERIFIER_nondet_int();
  int i = 0;
  while (1) {
    if (i > n) { ret = 1; __VERIFIER_error(); return ret; }
    if (i < 0) { ret = 2; __VERIFIER_error(); return ret; }
    i++;
  }
}
