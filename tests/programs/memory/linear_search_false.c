// linear search: claims the key is never in the array
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  int a[6];
  for (int i = 0; i < 6; i++) a[i] = __VERIFIER_nondet_int();
  int key = __VERIFIER_nondet_int();
  int found = -1;
  for (int i = 0; i < 6; i++)
    if (a[i] == key) { found = i; break; }
  if (found == 3) reach_error();
  return 0;
}
