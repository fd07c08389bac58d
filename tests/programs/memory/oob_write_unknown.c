// out-of-bounds write: i == 4 writes past the end of a (undefined behaviour); a starts as zeros,
// so the error call is reached by no run without it
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  int a[4] = {0, 0, 0, 0};
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 4) return 0;
  a[i] = 1;
  if (a[0] == 2) reach_error();
  return 0;
}
