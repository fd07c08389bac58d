/* FALSE: the inner body runs 10 x 10 = 100 times, so count < 100 fails after all 100 iterations. */
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int i, j, count = 0;
  for (i = 0; i < 10; i++) {
    for (j = 0; j < 10; j++) {
      count++;
    }
  }
  __VERIFIER_assert(count < 100);
  return 0;
}
