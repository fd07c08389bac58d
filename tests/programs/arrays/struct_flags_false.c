// as struct_flags_true.c over 30 entries, but entry 20 is marked used without a value: FALSE
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct entry { int used; int value; };
struct entry table[30];
int main(void) {
  for (int i = 0; i < 30; i++) {
    if (i == 20 || __VERIFIER_nondet_int()) { table[i].used = 1; table[i].value = i == 20 ? 0 : 5; }
    else { table[i].used = 0; table[i].value = 0; }
  }
  for (int i = 0; i < 30; i++)
    if (table[i].used && table[i].value == 0) reach_error();
  return 0;
}
