// a struct passed by value (ILP32: `byval`, the callee's own copy); the callee keeps a
// pointer into its copy, read after the call returned
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct S { int a[4]; };
int *g;
void keep(struct S s) { g = &s.a[1]; }
int main(void) {
  struct S t;
  t.a[1] = __VERIFIER_nondet_int();
  keep(t);
  if (*g == 2) reach_error();
  return 0;
}
