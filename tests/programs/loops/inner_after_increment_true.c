/* TRUE: g counts 1, 2, 3 and the loop stops at 3. Regression: at the inner loop's head a claimed invariant said g <= 2 (the outer head's g, before g++), where g is already 1..3. */
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int g = 0, j = 0;
  while (g < 3) {
    g++;
    for (j = 0; j < 2; j++) {
    }
  }
  __VERIFIER_assert(g == 3);
  return 0;
}
