extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
/* Each cell from the one before it, then each cell read right after it is written (in the same
   step of the loop): a[i] == i throughout. */
#define SIZE 2000
int a[SIZE];
int main(void) {
  a[0] = 0;
  for (int i = 1; i < SIZE; i++) {
    a[i] = a[i - 1] + 1;
    __VERIFIER_assert(a[i] == i);
  }
  __VERIFIER_assert(a[SIZE - 1] == SIZE - 1);
  return 0;
}
