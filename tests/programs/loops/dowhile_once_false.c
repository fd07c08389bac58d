/* FALSE: the do-while body runs once although i < 5 is false at the start, so i == 6, not 5. */
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int i = 5, s = 0;
  do {
    s = s + i;
    i++;
  } while (i < 5);
  __VERIFIER_assert(i == 5);
  return 0;
}
