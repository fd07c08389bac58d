// a struct passed by value whose copy the callee reads through a pointer, inside the call:
// memory safe, and the error is unreachable
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct S { int a[4]; };
int get(struct S s, int k) { int *p = &s.a[k & 3]; return *p; }
int main(void) {
  struct S t = {{1, 2, 3, 4}};
  t.a[2] = __VERIFIER_nondet_int();
  if (get(t, 1) != 2) reach_error();
  return 0;
}
