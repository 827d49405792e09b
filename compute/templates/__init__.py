"""One module per problem family; see compute/api.py for the functions each provides."""
