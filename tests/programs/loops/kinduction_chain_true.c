/* TRUE: s cycles 0 -> 1 -> 2 -> 0; 5 comes only from 4, 4 only from 3, and nothing leads to 3, so s != 5 is 3-inductive over loop iterations (not 1- or 2-inductive: 4 -> 5, 3 -> 4 -> 5). */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int s = 0;
  while (__VERIFIER_nondet_int()) {
    if (s == 0) {
      s = 1;
    } else if (s == 1) {
      s = 2;
    } else if (s == 2) {
      s = 0;
    } else if (s == 3) {
      s = 4;
    } else if (s == 4) {
      s = 5;
    }
  }
  __VERIFIER_assert(s != 5);
  return 0;
}
