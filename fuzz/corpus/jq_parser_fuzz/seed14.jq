# comment \
 still comment
. # end