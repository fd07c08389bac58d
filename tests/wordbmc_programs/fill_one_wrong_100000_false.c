extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
/* Fill an array with v, overwrite one cell k with something else, check every cell: the
   error is 100000+k+ steps deep. */
#define SIZE 100000
int a[SIZE];
int main(void) {
  int v = __VERIFIER_nondet_int();
  int k = __VERIFIER_nondet_int();
  for (int i = 0; i < SIZE; i++) a[i] = v;
  if (k >= 0 && k < SIZE) a[k] = v ^ 1;
  for (int i = 0; i < SIZE; i++) __VERIFIER_assert(a[i] == v);
  return 0;
}
