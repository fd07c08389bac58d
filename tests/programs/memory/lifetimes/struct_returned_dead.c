// structs returned by value (through the callee's sret parameter, which the inliner gives
// a noalias scope); a pointer into the first one is read after its block ended
extern void reach_error(void);
struct S { int a[3]; };
struct S make(int v) { struct S s = {{v, v + 1, v + 2}}; return s; }
int main(void) {
  int *p;
  { struct S t = make(1); p = &t.a[1]; }
  struct S u = make(7);
  if (*p == 8) reach_error();
  return u.a[0] - 7;
}
