// structs returned by value and used in their scope: the error is unreachable
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct S { int a[3]; };
struct S make(int v) { struct S s = {{v, v + 1, v + 2}}; return s; }
int main(void) {
  int v = __VERIFIER_nondet_int();
  struct S t = make(v);
  int *p = &t.a[1];
  struct S u = make(*p);
  if (u.a[2] != v + 3) reach_error();
  return 0;
}
