// linear search for x in a nondet 100 000-element array: every element passed over differs from x: TRUE (\forall k: k < i ==> a[k] != x)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
int main() {
  for (int i = 0; i < 100000; i++) a[i] = __VERIFIER_nondet_int();
  int x = __VERIFIER_nondet_int();
  int i = 0;
  while (i < 100000 && a[i] != x) i++;
  for (int j = 0; j < i; j++)
    if (a[j] == x) reach_error();
  return 0;
}
