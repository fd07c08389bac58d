/* TRUE: every iteration adds 1 to i and 2 to x, so x == 2*i always (modulo 2^32 as well; no n is excluded). */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int n = __VERIFIER_nondet_int();
  int i = 0, x = 0;
  while (i < n) {
    i++;
    x += 2;
  }
  __VERIFIER_assert(x == 2 * i);
  return 0;
}
