extern void reach_error(void);
/* argv and its strings are the program's to change */
int main(int argc, char **argv) {
  if (argc != 2) return 0;
  char *first = argv[1];
  argv[1] = argv[0];
  argv[0] = first;
  first[0] = 'k';
  if (argv[0][0] == 'k' && argv[1][0] == 'q') reach_error();
  return 0;
}
