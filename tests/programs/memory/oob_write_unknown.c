// out-of-bounds write: i == 4 writes past the end of a (undefined behaviour)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  int a[4];
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 4) return 0;
  a[i] = 1;
  if (a[0] == 2) reach_error();
  return 0;
}
