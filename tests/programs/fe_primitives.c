/* reach_error is defined (its body is dropped), __VERIFIER_assert is not (kept as a call),
   assert() becomes __assert_fail, and old-style implicit declarations are accepted. */
#include <assert.h>
void reach_error(void) { }
extern void __VERIFIER_assert(int cond);
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 0);
  __VERIFIER_assert(x != 7);
  assert(x != 8);
  if (x == 9) reach_error();
  if (x == 10) abort();
  return 0;
}
