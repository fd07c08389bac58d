/* Only f1, called through the table, counts: distinct functions have distinct addresses, so
   the dispatch never takes f1's address for f0's (llumc.frontend.procedures' tags). */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int calls = 0;
typedef int (*fn_t)(int);
int f0(int a) { return a; }
int f1(int a) { calls++; return a; }
static fn_t ops[2] = {f0, f1};
int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 1) return 0;
  ops[i](3);
  if (calls != i) reach_error();
  return 0;
}
