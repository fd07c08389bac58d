extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
/* a[i] = i, then one cell read at a nondeterministic index: the read is at no known cell, and
   a[j] == 1500 at j == 1500. */
#define SIZE 2000
int a[SIZE];
int main(void) {
  for (int i = 0; i < SIZE; i++) a[i] = i;
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < SIZE) __VERIFIER_assert(a[j] != 1500);
  return 0;
}
