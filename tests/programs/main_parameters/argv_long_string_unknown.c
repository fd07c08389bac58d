extern void reach_error(void);
/* true for every real run: strlen stops at the NUL; but a long argument has more bytes than
   the model holds */
int main(int argc, char **argv) {
  int n = 0;
  while (argv[0][n] != 0) n++;
  if (n < 0) reach_error();
  return 0;
}
