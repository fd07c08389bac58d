/* TRUE: the do-while body runs once (i becomes 6, and 6 < 5 is false): s == 5 and i == 6. */
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int i = 5, s = 0;
  do {
    s = s + i;
    i++;
  } while (i < 5);
  __VERIFIER_assert(s == 5);
  __VERIFIER_assert(i == 6);
  return 0;
}
