// array of structs with a char field between ints
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
struct item { int key; char tag; int value; };
int main() {
  struct item t[4];
  for (int i = 0; i < 4; i++) { t[i].key = i; t[i].tag = 'a' + i; t[i].value = 10 * i; }
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k >= 4) return 0;
  if (t[k].value != 10 * t[k].key || t[k].tag != 'a' + k) reach_error();
  return 0;
}
