extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
/* Copy all but the last element, then compare all: wrong exactly when a[SIZE - 1] != 0. */
#define SIZE 100
int a[SIZE], b[SIZE];
int main(void) {
  for (int i = 0; i < SIZE; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i + 1 < SIZE; i++) b[i] = a[i];
  for (int i = 0; i < SIZE; i++) __VERIFIER_assert(a[i] == b[i]);
  return 0;
}
