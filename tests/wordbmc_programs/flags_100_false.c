extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
/* An array of structs: a negative choice marks an entry used without a value. */
#define SIZE 100
struct entry { int used; int *value; };
struct entry table[SIZE];
int cell;
int main(void) {
  for (int i = 0; i < SIZE; i++) {
    int choice = __VERIFIER_nondet_int();
    table[i].used = choice != 0;
    table[i].value = choice > 0 ? &cell : 0;
  }
  for (int i = 0; i < SIZE; i++)
    if (table[i].used) __VERIFIER_assert(table[i].value != 0);
  return 0;
}
