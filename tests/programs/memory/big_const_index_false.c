// a store at a constant index of a 100 000-element global (its address a constant expression), then a store at a nondet index that may be the same: a[77777] is 5 when i = 77777: FALSE
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
int main() {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i >= 100000) return 0;
  a[77777] = 4;
  a[i] = 5;
  if (a[77777] != 4) reach_error();
  return 0;
}
