// a pointer to a callee's local used after the call returned (undefined behaviour at line 10)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int *last_of(int v) { int a[2]; a[0] = v; a[1] = v + 1; return &a[1]; }
int main() {
  int v = __VERIFIER_nondet_int();
  if (v < 0 || v > 100) return 0;
  int *p = last_of(v);
  int w = 0;
  w = *p;
  if (w != v + 1) reach_error();
  return 0;
}
