/* With ILP32 `long` is 32 bits: 2^32 + 5 is truncated to 5 and the error is reached. */
extern long __VERIFIER_nondet_long(void);
extern void __VERIFIER_error(void);
int main(void) {
  long v = __VERIFIER_nondet_long();
  if (v == 5 && sizeof(long) == 4)
    __VERIFIER_error();
  return 0;
}
