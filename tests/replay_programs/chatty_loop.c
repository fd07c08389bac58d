#include <stdio.h>
int main(void) {
  for (;;)
    puts("an endless stream of output that the replay must cut off");
}
