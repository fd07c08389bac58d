// an array of 100 000 structs whose flag says whether its pointer is set: the flag (offset
// 0 mod 8) and the pointer (4 mod 8) never share a byte, which their residues show without
// spelling out the 800 000-byte object (memory.py, _residues_meet)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct entry { int flag; int *p; };
struct entry t[100000];
int x;
int main(void) {
  int c = __VERIFIER_nondet_int();  /* one input decides which entries are set */
  for (int i = 0; i < 100000; i++) {
    if ((i ^ c) & 1) { t[i].flag = 1; t[i].p = &x; } else { t[i].flag = 0; t[i].p = 0; }
  }
  for (int i = 0; i < 100000; i++)
    if (t[i].flag && t[i].p == 0) reach_error();
  return 0;
}
