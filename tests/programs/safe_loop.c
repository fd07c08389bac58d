/* x stays even for ever: the error is unreachable. */
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  unsigned x = 0;
  while (__VERIFIER_nondet_int()) {
    x += 2;
    if (x % 2 == 1) {
      __VERIFIER_error();
    }
  }
  return 0;
}
