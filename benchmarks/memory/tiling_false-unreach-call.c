extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void *malloc(unsigned long);
extern void free(void *);
#define TILES 100
int a[2 * TILES];
int main(void) {
  int v = __VERIFIER_nondet_int();
  for (int i = 0; i < 2 * TILES; i++) a[i] = v ^ 1;
  for (int i = 0; i < TILES; i++) { a[2 * i] = v; if (i + 1 < TILES) a[2 * i + 1] = v; }
  for (int i = 0; i < 2 * TILES; i++) __VERIFIER_assert(a[i] == v);
  return 0;
}
