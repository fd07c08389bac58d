/* FALSE: 300 iterations add 2 each, so s == 600 at the end and s < 600 fails (after 300 iterations). */
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  unsigned int i = 0, s = 0;
  while (i < 300) {
    i++;
    s += 2;
  }
  __VERIFIER_assert(s < 600);
  return 0;
}
