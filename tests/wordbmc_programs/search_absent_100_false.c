extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
/* Linear search for x among nondeterministic values: x need not be there. */
#define SIZE 100
int a[SIZE];
int main(void) {
  for (int i = 0; i < SIZE; i++) a[i] = __VERIFIER_nondet_int();
  int x = __VERIFIER_nondet_int();
  int i = 0;
  while (i < SIZE && a[i] != x) i++;
  __VERIFIER_assert(i < SIZE);
  return 0;
}
