/* The running example of the LLUMC paper's appendix: x counts up by 2 from an even start
   until it wraps around below 10; x stays even, so the assertion fails. */
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) {
  if (!cond) {
    __VERIFIER_error();
  }
}

int main(void) {
  unsigned int x = 4294967295u - 101;
  while (x >= 10) {
    x += 2;
  }
  __VERIFIER_assert(x % 2);
  return 0;
}
