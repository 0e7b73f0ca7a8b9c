module mldsa-diff/oracle-go

go 1.27
