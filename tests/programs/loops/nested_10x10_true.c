/* TRUE: the inner body runs 10 times per outer iteration, 10 outer iterations: count == 100. */
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int i, j, count = 0;
  for (i = 0; i < 10; i++) {
    for (j = 0; j < 10; j++) {
      count++;
    }
  }
  __VERIFIER_assert(count == 100);
  return 0;
}
