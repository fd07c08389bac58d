// 1 000 entries, each either used with a value or unused with 0, then every used entry's value
// checked: TRUE (\forall k: k < 1000 ==> (table[k] != 0 ==> table[k]+4 != 0), two cells of one
// element tracked together)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct entry { int used; int value; };
struct entry table[1000];
int main(void) {
  for (int i = 0; i < 1000; i++) {
    if (__VERIFIER_nondet_int()) { table[i].used = 1; table[i].value = 5; }
    else { table[i].used = 0; table[i].value = 0; }
  }
  for (int i = 0; i < 1000; i++)
    if (table[i].used && table[i].value == 0) reach_error();
  return 0;
}
