extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
/* A running maximum that skips the last element: a[SIZE - 1] may exceed it. Checking the
   first elements against the maximum is a hard "unreachable" question for a SAT solver; the
   check of the last element is an easy "reachable" one. */
#define SIZE 100
int a[SIZE];
int main(void) {
  for (int i = 0; i < SIZE; i++) a[i] = __VERIFIER_nondet_int();
  int m = a[0];
  for (int i = 1; i < SIZE - 1; i++) if (a[i] > m) m = a[i];
  for (int i = 0; i < SIZE; i++) __VERIFIER_assert(a[i] <= m);
  return 0;
}
