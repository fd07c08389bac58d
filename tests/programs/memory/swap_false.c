// swap through pointers that may alias: swapping x with itself is fine, the claim x != y is not
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
void swap(int *p, int *q) { int t = *p; *p = *q; *q = t; }
int main() {
  int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();
  int *p = __VERIFIER_nondet_int() ? &x : &y;
  swap(p, &y);
  if (x == y) reach_error();
  return 0;
}
