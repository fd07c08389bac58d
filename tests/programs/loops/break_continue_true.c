/* TRUE: the loop breaks at i == 12 and counts the odd i below 12 (even i continue): 1,3,5,7,9,11, so odd == 6. */
extern void __VERIFIER_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { __VERIFIER_error(); } }
int main(void) {
  int i, odd = 0;
  for (i = 0; i < 100; i++) {
    if (i == 12) break;
    if ((i & 1) == 0) continue;
    odd++;
  }
  __VERIFIER_assert(i == 12);
  __VERIFIER_assert(odd == 6);
  return 0;
}
