#include "sudoku.h"
