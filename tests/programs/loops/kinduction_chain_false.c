/* FALSE: from s == 2 a nondet choice leads to 3, then 4, then 5: six iterations (choice taken), loop exit, s != 5 fails. */
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
      if (__VERIFIER_nondet_int()) {
        s = 3;
      } else {
        s = 0;
      }
    } else if (s == 3) {
      s = 4;
    } else if (s == 4) {
      s = 5;
    }
  }
  __VERIFIER_assert(s != 5);
  return 0;
}
