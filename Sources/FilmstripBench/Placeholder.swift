import Filmstrip
