// swap through pointers
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
void swap(int *p, int *q) { int t = *p; *p = *q; *q = t; }
int main() {
  int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();
  int x0 = x, y0 = y;
  swap(&x, &y);
  if (x != y0 || y != x0) reach_error();
  return 0;
}
