// a store at a constant index of a 100 000-element global (clang folds its address into a constant expression), then a store at a nondet index: a[77777] is still 4 unless that index was 77777: TRUE
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
int main() {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i >= 100000) return 0;
  a[77777] = 4;
  a[i] = 5;
  if (i != 77777 && a[77777] != 4) reach_error();
  return 0;
}
